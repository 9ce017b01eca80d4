import { escapeHtml } from './layout.js';

export interface SignInView {
  readonly action: string;
  readonly csrf: string;
  /** Who is asking, when signing in to authorize an app. */
  readonly clientName?: string | undefined;
  readonly username?: string | undefined;
  readonly error?: string | undefined;
}

export function signInPage(view: SignInView): string {
  const why = view.clientName
    ? `<p><strong>${escapeHtml(view.clientName)}</strong> wants to use your schedule. Sign in to decide what it may do.</p>`
    : '<p>Sign in to see the apps you have connected.</p>';
  return `<h1>Sign in to schedule</h1>${why}
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label>Username <input type="text" name="username" autocomplete="username" required value="${escapeHtml(view.username ?? '')}"></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
<p class="note">No password yet? The server's operator sets one with <code>schedule passwords set --user &lt;you&gt;</code>.</p>`;
}
