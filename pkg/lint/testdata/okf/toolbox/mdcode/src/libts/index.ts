export * from './manifest';
export * from './metadata';
export * from './snapshot';
export * from './sync';

export * as gcp from './gcp/context';
export * as dataplex from './gcp/dataplex';
