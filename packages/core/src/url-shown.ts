/** A URL as it may be shown (messages, logs, the CLI): without the credentials it may carry. */
export function urlShown(url: string): string {
  if (!URL.canParse(url)) return '(not a URL)';
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  return shown.href;
}
