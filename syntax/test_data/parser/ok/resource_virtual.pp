@user { 'alice': uid => 1000 }
