// V4L2Camera: placeholder until its issue lands.
