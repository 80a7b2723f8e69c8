// Probe: placeholder until its issue lands.
