/* placeholder: objstore_s3.c is being written */
