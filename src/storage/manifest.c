/* placeholder: manifest.c is being written */
