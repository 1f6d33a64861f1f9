#!/bin/bash
# Prints a nonce for the generated code: $NONCE when given, else eight random
# bytes.
echo "nonce ${NONCE:-$(od -An -N8 -tx1 /dev/urandom | tr -d ' ')}"
