import { adminPath, routeOf, safeReturnPath } from '../../router';

describe('the administration pages in the router', () => {
  it('finds each page by its path, with or without a trailing slash', () => {
    expect(routeOf('/console/data-systems')).toEqual({ page: 'data-systems' });
    expect(routeOf('/console/retention/')).toEqual({ page: 'retention' });
    expect(routeOf(adminPath('policies'))).toEqual({ page: 'policies' });
    expect(routeOf('/console/policies/extra')).toEqual({ page: 'not-found' });
    expect(safeReturnPath('/console/retention')).toBe('/console/retention');
  });
});
