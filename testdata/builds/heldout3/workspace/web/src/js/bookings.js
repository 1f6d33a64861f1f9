/* Booking calendar. */
import { api } from './api.js';

export async function renderBookings(el) {
  const rows = await api('/bookings');
  el.innerHTML = rows.map(r => `<li>${r.vessel} &mdash; ${r.berth}</li>`).join('');
  if (!rows.length) el.textContent = _('No bookings yet');
}
