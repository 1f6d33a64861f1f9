#include "lib/greet.h"

std::string Greeting(const std::string& name) { return "hello, " + name; }
