// Thin fetch wrapper around the booking API.
export async function api(path, options = {}) {
  const res = await fetch('/api' + path, { credentials: 'same-origin', ...options });
  if (!res.ok) throw new Error(_('Request failed') + ': ' + res.status);
  return res.json();
}
