// Integration and e2e tests wait on real servers (a broker restart takes seconds).
jest.setTimeout(180000);
