/* placeholder: memtable.c is being written */
