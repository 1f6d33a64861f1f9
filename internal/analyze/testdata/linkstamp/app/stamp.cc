const char* build_ts = BUILD_TIMESTAMP_STR;
