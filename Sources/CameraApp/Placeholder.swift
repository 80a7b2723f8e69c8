// CameraApp: placeholder until its issue lands.
