/* When this file was last changed, as the preprocessor sees it. */
const char source_changed[] = __TIMESTAMP__;
