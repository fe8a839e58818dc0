class foo(*$rest) { }
