// DNS-rebinding defence for /mcp (MCP Streamable HTTP, "Security"). A page on another site can point
// its own name at 127.0.0.1 and script a service bound there; the browser then sends that name as Host
// and its own origin as Origin. Bound to a loopback address, the service accepts only loopback names
// and its own public name as Host, and only those pages (plus the configured ones) as Origin; a
// refused request gets 403 with a JSON-RPC error, from the SDK's Fastify hooks. Bound publicly, every
// page may call, as every page may call the REST API, unless the operator lists the allowed ones.
import { isIP } from 'node:net';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/fastify';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { ServiceConfig } from '../../config.js';

export function rebindingProtection(config: ServiceConfig): onRequestAsyncHookHandler[] {
  // URL.hostname keeps the brackets of an IPv6 address, as the SDK's lists write it.
  const ownName = new URL(config.baseUrl).hostname;
  const loopback = isLoopback(config.host);
  const hooks: onRequestAsyncHookHandler[] = [];
  if (loopback) hooks.push(hostHeaderValidation([...localhostAllowedHostnames(), ownName]));
  if (loopback || config.mcpAllowedOrigins) {
    hooks.push(originValidation([...(loopback ? localhostAllowedOrigins() : []), ownName, ...(config.mcpAllowedOrigins ?? [])]));
  }
  return hooks;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}
