const char *compiled_at = __TIME__;
