/* placeholder: bloom.c is being written */
