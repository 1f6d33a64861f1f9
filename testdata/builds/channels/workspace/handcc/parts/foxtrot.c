int foxtrot_value(void) { return 7; }
