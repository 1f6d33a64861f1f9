int alpha_value(void) { return 5; }
