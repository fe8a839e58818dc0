import * as fs from 'fs';
import type { DiscoveryFs } from './discovery';

/** The real file system for server discovery. */
export const nodeFs: DiscoveryFs = {
  isExecutableFile(file: string): boolean {
    try {
      if (!fs.statSync(file).isFile()) {
        return false;
      }
      if (process.platform !== 'win32') {
        fs.accessSync(file, fs.constants.X_OK);
      }
      return true;
    } catch {
      return false;
    }
  },
};
