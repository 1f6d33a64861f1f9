CREATE TABLE tide_stations (id INTEGER PRIMARY KEY, harbour_id INTEGER NOT NULL REFERENCES harbours(id), code TEXT NOT NULL);
CREATE TABLE tide_predictions (station_id INTEGER NOT NULL REFERENCES tide_stations(id), at TEXT NOT NULL, height_m REAL NOT NULL, PRIMARY KEY (station_id, at));
CREATE INDEX bookings_berth_starts ON bookings(berth_id, starts_at);
