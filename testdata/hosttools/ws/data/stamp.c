const char *built_on = __DATE__ " " __TIME__;
