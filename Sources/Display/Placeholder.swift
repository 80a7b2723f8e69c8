// Display: placeholder until its issue lands.
