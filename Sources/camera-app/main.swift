print("camera-app: not built yet")
