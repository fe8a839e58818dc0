$x = Array[type]
