/* placeholder: objstore_local.c is being written */
