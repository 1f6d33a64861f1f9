CREATE TABLE operators (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, display_name TEXT);
CREATE TABLE api_tokens (id INTEGER PRIMARY KEY, operator_id INTEGER NOT NULL REFERENCES operators(id), token_hash TEXT NOT NULL, expires_at TEXT);
CREATE TABLE audit_log (id INTEGER PRIMARY KEY, operator_id INTEGER, action TEXT NOT NULL, at TEXT NOT NULL);
