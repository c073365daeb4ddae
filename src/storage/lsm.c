/* placeholder: lsm.c is being written */
