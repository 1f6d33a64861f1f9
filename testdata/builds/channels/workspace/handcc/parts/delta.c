int delta_value(void) { return 5; }
