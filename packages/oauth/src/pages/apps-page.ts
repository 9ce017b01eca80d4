import type { GrantSummary } from '@schedule/core';
import { escapeHtml } from './layout.js';

export interface AppsView {
  readonly username: string;
  readonly csrf: string;
  readonly grants: readonly (GrantSummary & { readonly clientName: string | null })[];
  readonly notice?: string | undefined;
}

export function appsPage(view: AppsView): string {
  const rows = view.grants
    .map((grant) => {
      const scopes = Object.values(grant.resources).flat();
      return `<tr><td>${escapeHtml(grant.clientName ?? grant.client_id)}<br><code>${escapeHtml(grant.client_id)}</code></td>
<td>${scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</td><td>${escapeHtml(grant.created_at.slice(0, 10))}</td>
<td><form method="post" action="/oauth/apps/revoke"><input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}"><input type="hidden" name="grant_id" value="${escapeHtml(grant.grant_id)}"><button type="submit">Revoke</button></form></td></tr>`;
    })
    .join('\n');
  const table = view.grants.length
    ? `<table><thead><tr><th>App</th><th>May</th><th>Since</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p>No apps are connected.</p>';
  return `<h1>Connected apps</h1><p>Signed in as <strong>${escapeHtml(view.username)}</strong>.</p>
${view.notice ? `<p role="status">${escapeHtml(view.notice)}</p>` : ''}${table}
<p class="note">Revoking an app ends every token it holds for you; a server that caches tokens stops honouring them within seconds.</p>`;
}
