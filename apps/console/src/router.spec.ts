import { requestPath, routeOf, safeReturnPath } from './router';

describe("the console's routes", () => {
  it('finds each page by its path', () => {
    expect(routeOf('/console/')).toEqual({ page: 'queue' });
    expect(routeOf('/console')).toEqual({ page: 'queue' });
    expect(routeOf('/console/requests')).toEqual({ page: 'queue' });
    expect(routeOf('/console/requests/')).toEqual({ page: 'queue' });
    expect(routeOf('/console/dashboard')).toEqual({ page: 'dashboard' });
    expect(routeOf('/console/dashboard/')).toEqual({ page: 'dashboard' });
    expect(routeOf('/console/requests/0b9f2f4e-3c1d-4e7a-9a0b-5a2f8c7d6e10')).toEqual({ page: 'request', id: '0b9f2f4e-3c1d-4e7a-9a0b-5a2f8c7d6e10' });
    expect(routeOf('/console/requests/DSAR-0B9F2F4E/')).toEqual({ page: 'request', id: 'DSAR-0B9F2F4E' });
    expect(routeOf('/console/signed-in')).toEqual({ page: 'signed-in' });
    expect(routeOf('/console/renewed')).toEqual({ page: 'renewed' });
  });

  it('finds no page for other paths, nor for an id that could leave its segment', () => {
    for (const path of ['/elsewhere', '/console/nope', '/console/dashboard/x', '/console/requests/a/b', '/console/requests/..%2F..%2Fapi', '/console/requests/%E0%A4%A', '/console/requests/a%20b']) {
      expect({ path, route: routeOf(path) }).toEqual({ path, route: { page: 'not-found' } });
    }
  });

  it("makes a request's path from its id", () => {
    expect(requestPath('0b9f2f4e-3c1d-4e7a-9a0b-5a2f8c7d6e10')).toBe('/console/requests/0b9f2f4e-3c1d-4e7a-9a0b-5a2f8c7d6e10');
  });

  it('comes back only to a page of the console after signing in', () => {
    expect(safeReturnPath('/console/requests?status=received&page=2')).toBe('/console/requests?status=received&page=2');
    expect(safeReturnPath('/console/requests/DSAR-0B9F2F4E')).toBe('/console/requests/DSAR-0B9F2F4E');
    for (const unsafe of [undefined, null, '', 'https://evil.example/console/', '//evil.example/console/', '/api/v1/requests', '/console/signed-in?code=x', '/console/renewed', '/console/\\evil']) {
      expect({ unsafe, path: safeReturnPath(unsafe) }).toEqual({ unsafe, path: '/console/' });
    }
  });
});
