/* Where this file was compiled from, as assertion messages and logs print it. */
const char source_file[] = __FILE__;
