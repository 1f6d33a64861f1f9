#pragma once
#define TOOL_VERSION "2.4.1-20261201.224737"
