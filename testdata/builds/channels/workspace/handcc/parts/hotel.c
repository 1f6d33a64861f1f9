int hotel_value(void) { return 5; }
