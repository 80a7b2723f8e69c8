// SyntheticCamera: placeholder until its issue lands.
