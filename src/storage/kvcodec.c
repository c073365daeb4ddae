/* placeholder: kvcodec.c is being written */
