/* placeholder: sst.c is being written */
