/* placeholder: sigv4.c is being written */
