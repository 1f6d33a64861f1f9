CREATE TABLE tariffs (id INTEGER PRIMARY KEY, harbour_id INTEGER NOT NULL REFERENCES harbours(id), per_metre_day REAL NOT NULL);
CREATE TABLE invoices (id INTEGER PRIMARY KEY, booking_id INTEGER NOT NULL REFERENCES bookings(id), amount_cents INTEGER NOT NULL, issued_at TEXT);
CREATE TABLE payments (id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoices(id), amount_cents INTEGER NOT NULL, received_at TEXT);
CREATE TABLE schema_notes (id INTEGER PRIMARY KEY, note TEXT);
