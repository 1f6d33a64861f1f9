// The driftwood web console: polls the daemon and draws the latest records.
"use strict";

const POLL_MS = 2000;

async function poll() {
  const response = await fetch("/api/records?limit=50");
  const records = await response.json();
  const table = document.getElementById("records");
  table.innerHTML = "";
  for (const r of records) {
    const row = table.insertRow();
    row.insertCell().textContent = new Date(r.timestamp / 1e6).toISOString();
    row.insertCell().textContent = r.value.toFixed(3);
  }
}

setInterval(poll, POLL_MS);
poll();
