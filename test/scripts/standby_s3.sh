#!/bin/sh
# standby_s3.sh: standby.sh with the store on a real S3 server (versitygw).
STANDBY_S3=1 exec sh "$top_srcdir/test/scripts/standby.sh"
