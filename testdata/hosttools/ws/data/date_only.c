const char *compiled_on = __DATE__;
