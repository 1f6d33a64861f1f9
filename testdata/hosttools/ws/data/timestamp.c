const char *source_changed = __TIMESTAMP__;
