int bravo_value(void) { return 5; }
