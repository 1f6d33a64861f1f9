const char *where = __FILE__;
