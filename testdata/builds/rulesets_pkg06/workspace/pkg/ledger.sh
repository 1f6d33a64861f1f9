#!/bin/sh
echo "ledger 1.4.2"
