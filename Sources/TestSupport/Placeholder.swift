// TestSupport: placeholder until its issue lands.
