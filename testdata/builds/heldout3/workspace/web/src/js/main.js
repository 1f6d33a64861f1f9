// Entry point.
import { renderBookings } from './bookings.js';

document.addEventListener('DOMContentLoaded', () => {
  renderBookings(document.getElementById('bookings'));
  document.title = _('Berth planner');
});
