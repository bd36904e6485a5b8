// Preloaded into Portkey (node --import) so that its server listens on 127.0.0.1 only:
// its start-server.js takes a port but no host, and would otherwise listen on every interface.
import http from 'node:http';

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (port, host, ...rest) {
  if (typeof port === 'number' && (host === undefined || typeof host === 'function')) {
    const callback = typeof host === 'function' ? [host] : [];
    return listen.call(this, port, '127.0.0.1', ...callback, ...rest);
  }
  return listen.call(this, port, host, ...rest);
};
