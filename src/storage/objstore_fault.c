/* placeholder: objstore_fault.c is being written */
