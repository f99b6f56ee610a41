// Words the service writes for people in more than one place (the 429 error and the 429 page).

/** "1 second", "2 seconds". */
export const secondsText = (count: number): string => `${count} ${count === 1 ? 'second' : 'seconds'}`;
