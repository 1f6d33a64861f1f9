#!/bin/sh
# What a release's status script prints; a checkout copy has no git, so the
# revision is fixed. Keys without STABLE_ go to volatile-status.txt.
echo "BUILD_SCM_REVISION 0123456789abcdef"
echo "BUILD_SCM_STATUS clean"
echo "STABLE_RELEASE 1.4.2"
