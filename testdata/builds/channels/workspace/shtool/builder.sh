#!/bin/bash
# builder.sh [NAME]: a Built-By line, for NAME or whoever runs the build.
echo "Built-By: ${1:-$(whoami)}"
